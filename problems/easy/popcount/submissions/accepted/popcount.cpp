#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    int count = 0;
    for (; n > 0; n >>= 1) count += n & 1;
    return std::to_string(count);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
