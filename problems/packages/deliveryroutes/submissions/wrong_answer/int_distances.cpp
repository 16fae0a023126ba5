// Dijkstra with 32-bit distances: overflows on long heavy paths.
#include <cstdio>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

int main() {
    int n, m;
    std::scanf("%d %d", &n, &m);
    std::vector<std::vector<std::pair<int, int>>> adj(n + 1);
    for (int j = 0; j < m; j++) {
        int u, v, w;
        std::scanf("%d %d %d", &u, &v, &w);
        adj[u].push_back({v, w});
    }
    std::vector<int> dist(n + 1, -1);
    std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>> heap;
    dist[1] = 0;
    heap.push({0, 1});
    while (!heap.empty()) {
        auto [d, u] = heap.top();
        heap.pop();
        if (d != dist[u]) continue;
        for (auto [v, w] : adj[u]) {
            int nd = (int)((unsigned)d + (unsigned)w);
            if (dist[v] == -1 || nd < dist[v]) {
                dist[v] = nd;
                heap.push({nd, v});
            }
        }
    }
    for (int v = 1; v <= n; v++) std::printf("%d%c", dist[v], v < n ? ' ' : '\n');
}
