#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long x, long long l, long long r) {
    return std::to_string(x < l ? l : x > r ? r : x);
}

int main() {
    long long x, l, r;
    std::cin >> x >> l >> r;
    std::cout << solve(x, l, r) << "\n";
}
