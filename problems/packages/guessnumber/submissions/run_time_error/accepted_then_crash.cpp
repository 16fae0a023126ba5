// Finds the number, then crashes after the interactor accepted.
#include <cstdio>
#include <cstdlib>
int main() {
    long long n;
    scanf("%lld", &n);
    long long lo = 1, hi = n;
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        printf("? %lld\n", mid);
        fflush(stdout);
        char r[4];
        scanf("%3s", r);
        if (r[0] == '=') { lo = hi = mid; break; }
        if (r[0] == '<') hi = mid - 1; else lo = mid + 1;
    }
    printf("! %lld\n", lo);
    fflush(stdout);
    fclose(stdout);
    abort();
}
