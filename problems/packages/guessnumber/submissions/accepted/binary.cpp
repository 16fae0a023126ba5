#include <cstdio>
#include <cstring>
int main() {
    long long n;
    if (scanf("%lld", &n) != 1) return 0;
    long long lo = 1, hi = n;
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        printf("? %lld\n", mid);
        fflush(stdout);
        char r[4];
        if (scanf("%3s", r) != 1) return 0;
        if (r[0] == '=') { lo = hi = mid; break; }
        if (r[0] == '<') hi = mid - 1; else lo = mid + 1;
    }
    printf("! %lld\n", lo);
    fflush(stdout);
}
