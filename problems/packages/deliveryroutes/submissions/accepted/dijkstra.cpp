#include <cstdio>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

int main() {
    int n, m;
    if (std::scanf("%d %d", &n, &m) != 2) return 1;
    std::vector<std::vector<std::pair<int, long long>>> adj(n + 1);
    for (int j = 0; j < m; j++) {
        int u, v;
        long long w;
        std::scanf("%d %d %lld", &u, &v, &w);
        adj[u].push_back({v, w});
    }
    const long long INF = -1;
    std::vector<long long> dist(n + 1, INF);
    using Item = std::pair<long long, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    dist[1] = 0;
    heap.push({0, 1});
    while (!heap.empty()) {
        auto [d, u] = heap.top();
        heap.pop();
        if (d != dist[u]) continue;
        for (auto [v, w] : adj[u]) {
            if (dist[v] == INF || d + w < dist[v]) {
                dist[v] = d + w;
                heap.push({dist[v], v});
            }
        }
    }
    std::string out;
    for (int v = 1; v <= n; v++) {
        out += std::to_string(dist[v]);
        out += v < n ? ' ' : '\n';
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
}
