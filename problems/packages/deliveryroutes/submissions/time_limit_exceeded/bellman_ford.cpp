// Bellman-Ford with early exit: fine on random graphs, n rounds on a chain listed backwards.
#include <cstdio>
#include <vector>

int main() {
    int n, m;
    std::scanf("%d %d", &n, &m);
    std::vector<int> u(m), v(m);
    std::vector<long long> w(m);
    for (int j = 0; j < m; j++) std::scanf("%d %d %lld", &u[j], &v[j], &w[j]);
    std::vector<long long> dist(n + 1, -1);
    dist[1] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (int j = 0; j < m; j++) {
            if (dist[u[j]] >= 0 && (dist[v[j]] < 0 || dist[u[j]] + w[j] < dist[v[j]])) {
                dist[v[j]] = dist[u[j]] + w[j];
                changed = true;
            }
        }
    }
    for (int i = 1; i <= n; i++) std::printf("%lld%c", dist[i], i < n ? ' ' : '\n');
}
