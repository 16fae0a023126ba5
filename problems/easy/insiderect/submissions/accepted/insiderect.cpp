#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long x1, long long y1, long long x2, long long y2, long long p, long long q) {
    return x1 <= p && p <= x2 && y1 <= q && q <= y2 ? "YES" : "NO";
}

int main() {
    long long x1, y1, x2, y2, p, q;
    std::cin >> x1 >> y1 >> x2 >> y2 >> p >> q;
    std::cout << solve(x1, y1, x2, y2, p, q) << "\n";
}
