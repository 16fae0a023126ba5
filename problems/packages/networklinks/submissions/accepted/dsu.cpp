// Union-find with path halving and union by size.
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

static std::vector<int> parent, size_of;

static int find(int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    parent.resize(n + 1);
    size_of.assign(n + 1, 1);
    std::iota(parent.begin(), parent.end(), 0);
    std::string out;
    for (int j = 0; j < q; j++) {
        char kind;
        int a, b;
        std::scanf(" %c %d %d", &kind, &a, &b);
        a = find(a);
        b = find(b);
        if (kind == '?') {
            out += a == b ? "yes\n" : "no\n";
        } else if (a != b) {
            if (size_of[a] < size_of[b]) std::swap(a, b);
            parent[b] = a;
            size_of[a] += size_of[b];
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
}
