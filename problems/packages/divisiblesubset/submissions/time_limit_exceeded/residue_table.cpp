// Subset sums over residues: friend by friend, every remainder reachable so far extended by
// the friend's coins, until remainder 0 is reached. Correct, but O(n^2) when remainders are
// reached one at a time (all coins 1).
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<long long> a(n);
    for (auto& x : a) std::scanf("%lld", &x);
    // from[r]: the friend who first made remainder r reachable; prev[r]: the remainder before.
    std::vector<int> from(n, -1), prev(n, -1), reached;
    for (int i = 0; i < n; i++) {
        int step = static_cast<int>(a[i] % n);
        std::vector<int> fresh;
        auto reach = [&](int r, int p) {
            if (from[r] < 0) {
                from[r] = i;
                prev[r] = p;
                fresh.push_back(r);
            }
        };
        reach(step, -1);
        for (int r : reached) reach(static_cast<int>((r + step) % n), r);
        reached.insert(reached.end(), fresh.begin(), fresh.end());
        if (from[0] >= 0) break;
    }
    std::vector<int> group;
    for (int r = 0; r >= 0; r = prev[r]) group.push_back(from[r] + 1);
    std::printf("%zu\n", group.size());
    for (size_t t = 0; t < group.size(); t++) std::printf("%d%c", group[t], t + 1 == group.size() ? '\n' : ' ');
}
