// tails[k] = the smallest last price of a rising pick of length k + 1; O(n log n).
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<int> tails;
    for (int i = 0; i < n; i++) {
        int p;
        std::scanf("%d", &p);
        auto it = std::lower_bound(tails.begin(), tails.end(), p);
        if (it == tails.end()) tails.push_back(p);
        else *it = p;
    }
    std::printf("%zu\n", tails.size());
}
