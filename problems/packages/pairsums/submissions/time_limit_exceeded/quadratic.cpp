// O(n^2): solves groups 1 and 2 (50 points), too slow for group 3.
#include <cstdio>
#include <vector>
int main() {
    int n;
    long long k;
    scanf("%d %lld", &n, &k);
    std::vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    long long pairs = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (a[i] + a[j] == k) pairs++;
    printf("%lld\n", pairs);
}
