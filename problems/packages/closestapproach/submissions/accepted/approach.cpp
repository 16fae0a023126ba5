// The relative position is d(t) = d0 + t v; the squared distance is a parabola in t,
// minimal at t* = -(d0 . v) / (v . v), clamped to [0, T]. Integer dot products are exact.
#include <cmath>
#include <cstdio>

int main() {
    int k;
    if (std::scanf("%d", &k) != 1) return 1;
    while (k--) {
        long long x1, y1, u1, w1, x2, y2, u2, w2, T;
        std::scanf("%lld %lld %lld %lld %lld %lld %lld %lld %lld", &x1, &y1, &u1, &w1, &x2, &y2, &u2, &w2, &T);
        long long dx = x2 - x1, dy = y2 - y1, vx = u2 - u1, vy = w2 - w1;
        long long vv = vx * vx + vy * vy, dv = dx * vx + dy * vy;
        double best;
        if (vv == 0 || dv >= 0) {
            best = std::sqrt((double)(dx * dx + dy * dy));
        } else if (-dv >= vv * T) {
            double ex = dx + (double)vx * T, ey = dy + (double)vy * T;
            best = std::hypot(ex, ey);
        } else {
            // |d0|^2 - (d0.v)^2 / |v|^2 = (d0 x v)^2 / |v|^2, with an exact cross product.
            long long cross = dx * vy - dy * vx;
            best = std::fabs((double)cross) / std::sqrt((double)vv);
        }
        std::printf("%.9f\n", best);
    }
}
