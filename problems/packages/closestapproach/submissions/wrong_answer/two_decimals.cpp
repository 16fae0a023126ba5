// The right formula, printed with two decimals only: off by up to 5e-3.
#include <cmath>
#include <cstdio>

int main() {
    int k;
    std::scanf("%d", &k);
    while (k--) {
        double x1, y1, u1, w1, x2, y2, u2, w2, T;
        std::scanf("%lf %lf %lf %lf %lf %lf %lf %lf %lf", &x1, &y1, &u1, &w1, &x2, &y2, &u2, &w2, &T);
        double dx = x2 - x1, dy = y2 - y1, vx = u2 - u1, vy = w2 - w1;
        double vv = vx * vx + vy * vy, t = vv == 0 ? 0 : -(dx * vx + dy * vy) / vv;
        t = std::fmin(std::fmax(t, 0.0), T);
        std::printf("%.2f\n", std::hypot(dx + vx * t, dy + vy * t));
    }
}
