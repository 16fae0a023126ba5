#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    long long rest = n % 5;
    return std::to_string(n / 5 + rest / 2 + rest % 2);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
