#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long top = *std::max_element(a.begin(), a.end());
    bool found = false;
    long long second = 0;
    for (long long x : a)
        if (x < top && (!found || x > second)) second = x, found = true;
    return std::to_string(second);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
