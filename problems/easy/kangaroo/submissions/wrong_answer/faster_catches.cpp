#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Says they meet whenever the one behind is faster: it may jump over the other.
std::string solve(long long a, long long u, long long b, long long v) {
    if (a == b) return "YES";
    return (a < b && u > v) || (b < a && v > u) ? "YES" : "NO";
}

int main() {
    long long a, u, b, v;
    std::cin >> a >> u >> b >> v;
    std::cout << solve(a, u, b, v) << "\n";
}
