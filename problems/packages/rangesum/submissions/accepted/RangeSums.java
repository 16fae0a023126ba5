import java.io.DataInputStream;
import java.io.IOException;

public class RangeSums {
    private static final DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(System.in, 1 << 16));

    private static long next() throws IOException {
        int c = in.read();
        while (c == ' ' || c == '\n' || c == '\r') c = in.read();
        long value = 0;
        while (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            c = in.read();
        }
        return value;
    }

    public static void main(String[] args) throws IOException {
        int n = (int) next(), q = (int) next();
        long[] prefix = new long[n + 1];
        for (int i = 1; i <= n; i++) prefix[i] = prefix[i - 1] + next();
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < q; j++) {
            int l = (int) next(), r = (int) next();
            out.append(prefix[r] - prefix[l - 1]).append('\n');
        }
        System.out.print(out);
    }
}
