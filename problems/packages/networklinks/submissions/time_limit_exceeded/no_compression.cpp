// Union-find without path compression or union by size: finds walk long paths.
#include <cstdio>
#include <vector>

static std::vector<int> parent;

static int find(int x) {
    while (parent[x] != x) x = parent[x];
    return x;
}

int main() {
    int n, q;
    std::scanf("%d %d", &n, &q);
    parent.resize(n + 1);
    for (int i = 0; i <= n; i++) parent[i] = i;
    for (int j = 0; j < q; j++) {
        char kind;
        int a, b;
        std::scanf(" %c %d %d", &kind, &a, &b);
        a = find(a);
        b = find(b);
        if (kind == '?') std::puts(a == b ? "yes" : "no");
        else if (a != b) parent[a] = b;
    }
}
