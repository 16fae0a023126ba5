#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(std::vector<long long> a) {
    std::sort(a.begin(), a.end());
    size_t n = a.size();
    return std::to_string(std::max(a[0] * a[1], a[n - 1] * a[n - 2]));
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
