// Answers the last midpoint instead of the remaining candidate.
#include <cstdio>
int main() {
    long long n;
    scanf("%lld", &n);
    long long lo = 1, hi = n, mid = 1;
    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        printf("? %lld\n", mid);
        fflush(stdout);
        char r[4];
        scanf("%3s", r);
        if (r[0] == '=') break;
        if (r[0] == '<') hi = mid - 1; else lo = mid + 1;
    }
    printf("! %lld\n", mid);
    fflush(stdout);
}
