// Sorts and walks two pointers inward, but keeps the count in an int: right on groups 1
// and 2 (50 points), wrong on the all-equal large test (about 2 * 10^10 pairs).
#include <algorithm>
#include <cstdio>
#include <vector>
int main() {
    int n;
    long long k;
    scanf("%d %lld", &n, &k);
    std::vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    std::sort(a.begin(), a.end());
    int pairs = 0;
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        long long sum = a[lo] + a[hi];
        if (sum < k) {
            lo++;
        } else if (sum > k) {
            hi--;
        } else if (a[lo] == a[hi]) {
            long long m = hi - lo + 1;
            pairs += (int)(m * (m - 1) / 2);
            break;
        } else {
            int left = 1, right = 1;
            while (lo + left < hi && a[lo + left] == a[lo]) left++;
            while (hi - right > lo && a[hi - right] == a[hi]) right++;
            pairs += left * right;
            lo += left;
            hi -= right;
        }
    }
    printf("%d\n", pairs);
}
