import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.PriorityQueue;

public class Dijkstra {
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
        int n = (int) next(), m = (int) next();
        int[] head = new int[n + 1], nextEdge = new int[m], to = new int[m];
        long[] weight = new long[m];
        Arrays.fill(head, -1);
        for (int j = 0; j < m; j++) {
            int u = (int) next();
            to[j] = (int) next();
            weight[j] = next();
            nextEdge[j] = head[u];
            head[u] = j;
        }
        long[] dist = new long[n + 1];
        Arrays.fill(dist, -1);
        dist[1] = 0;
        PriorityQueue<long[]> heap = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        heap.add(new long[] {0, 1});
        while (!heap.isEmpty()) {
            long[] top = heap.poll();
            int u = (int) top[1];
            if (top[0] != dist[u]) continue;
            for (int e = head[u]; e >= 0; e = nextEdge[e]) {
                long nd = top[0] + weight[e];
                if (dist[to[e]] < 0 || nd < dist[to[e]]) {
                    dist[to[e]] = nd;
                    heap.add(new long[] {nd, to[e]});
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (int v = 1; v <= n; v++) out.append(dist[v]).append(v < n ? ' ' : '\n');
        System.out.print(out);
    }
}
