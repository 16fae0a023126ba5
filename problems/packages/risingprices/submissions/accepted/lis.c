/* Patience sorting with a hand-written binary search. */
#include <stdio.h>

static int tails[200000];

int main(void) {
    int n, len = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        int p;
        if (scanf("%d", &p) != 1) return 1;
        int lo = 0, hi = len; /* first k with tails[k] >= p */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (tails[mid] < p) lo = mid + 1;
            else hi = mid;
        }
        tails[lo] = p;
        if (lo == len) len++;
    }
    printf("%d\n", len);
    return 0;
}
