// Sums in a 32-bit int: right on small tests, wrong once the sum leaves the int range.
#include <cstdio>

int main() {
    int n;
    std::scanf("%d", &n);
    int total = 0;
    for (int i = 0; i < n; i++) {
        int x;
        std::scanf("%d", &x);
        total = (int)((unsigned)total + (unsigned)x);
    }
    std::printf("%d\n", total);
}
