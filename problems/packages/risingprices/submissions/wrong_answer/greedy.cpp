// Greedily takes every price above the last taken one: right on sorted input only.
#include <cstdio>

int main() {
    int n;
    std::scanf("%d", &n);
    int count = 0;
    long long last = 0;
    for (int i = 0; i < n; i++) {
        long long p;
        std::scanf("%lld", &p);
        if (p > last) {
            count++;
            last = p;
        }
    }
    std::printf("%d\n", count);
}
