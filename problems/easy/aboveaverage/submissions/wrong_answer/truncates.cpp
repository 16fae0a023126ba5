#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Divides with /, which rounds a negative average towards zero: -1.5 becomes -1.
std::string solve(const std::vector<long long> &a) {
    long long total = 0;
    for (long long x : a) total += x;
    long long average = total / (long long)a.size();
    int count = 0;
    for (long long x : a) if (x > average) count++;
    return std::to_string(count);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
