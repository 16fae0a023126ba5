#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    return n % 2 == 0 ? "even" : "odd";
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
