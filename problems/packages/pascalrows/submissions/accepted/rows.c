/* One row at a time, updated in place from the right; output through a big stdio buffer. */
#include <stdio.h>

static long long row[1001];
static char buffer[1 << 20];

int main(void) {
    const long long MOD = 1000000007;
    int n;
    if (scanf("%d", &n) != 1) return 1;
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    row[0] = 1;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) printf(j < i ? "%lld " : "%lld\n", row[j]);
        row[i + 1] = 1;
        for (int j = i; j >= 1; j--) row[j] = (row[j] + row[j - 1]) % MOD;
    }
    return 0;
}
