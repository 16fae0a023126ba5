#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long reach = 0;
    for (long long i = 0; i < (long long)a.size(); i++) {
        if (i > reach) return "NO";
        reach = std::max(reach, i + a[i]);
    }
    return "YES";
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
