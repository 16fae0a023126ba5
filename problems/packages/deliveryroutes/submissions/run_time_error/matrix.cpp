// Keeps an n x n distance matrix: 8 * n^2 bytes cannot be had for n = 100000.
#include <cstdio>
#include <vector>

int main() {
    int n, m;
    std::scanf("%d %d", &n, &m);
    std::vector<std::vector<long long>> w(n + 1, std::vector<long long>(n + 1, -1));
    for (int j = 0; j < m; j++) {
        int u, v;
        long long c;
        std::scanf("%d %d %lld", &u, &v, &c);
        if (w[u][v] < 0 || c < w[u][v]) w[u][v] = c;
    }
    std::vector<long long> dist(n + 1, -1);
    std::vector<bool> done(n + 1, false);
    dist[1] = 0;
    for (int round = 0; round < n; round++) {
        int best = -1;
        for (int i = 1; i <= n; i++)
            if (!done[i] && dist[i] >= 0 && (best < 0 || dist[i] < dist[best])) best = i;
        if (best < 0) break;
        done[best] = true;
        for (int i = 1; i <= n; i++)
            if (w[best][i] >= 0 && (dist[i] < 0 || dist[best] + w[best][i] < dist[i])) dist[i] = dist[best] + w[best][i];
    }
    for (int i = 1; i <= n; i++) std::printf("%lld%c", dist[i], i < n ? ' ' : '\n');
}
