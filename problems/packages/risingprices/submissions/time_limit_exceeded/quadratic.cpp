// The textbook O(n^2) DP: best[i] = 1 + max best[j] over j < i with p[j] < p[i].
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int n;
    std::scanf("%d", &n);
    std::vector<int> p(n), best(n, 1);
    for (int &x : p) std::scanf("%d", &x);
    int answer = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (p[j] < p[i]) best[i] = std::max(best[i], best[j] + 1);
        answer = std::max(answer, best[i]);
    }
    std::printf("%d\n", answer);
}
