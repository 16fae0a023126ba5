import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Approach {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in), 1 << 16);
        int k = Integer.parseInt(in.readLine().trim());
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < k; j++) {
            StringTokenizer st = new StringTokenizer(in.readLine());
            long[] a = new long[9];
            for (int i = 0; i < 9; i++) a[i] = Long.parseLong(st.nextToken());
            long dx = a[4] - a[0], dy = a[5] - a[1], vx = a[6] - a[2], vy = a[7] - a[3], t = a[8];
            long vv = vx * vx + vy * vy, dv = dx * vx + dy * vy;
            double best;
            if (vv == 0 || dv >= 0) {
                best = Math.hypot(dx, dy);
            } else if (-dv >= vv * t) {
                best = Math.hypot(dx + (double) vx * t, dy + (double) vy * t);
            } else {
                best = Math.abs((double) (dx * vy - dy * vx)) / Math.sqrt((double) vv);
            }
            out.append(best).append('\n');  // shortest round-trip form, e.g. 1.5E-7
        }
        System.out.print(out);
    }
}
