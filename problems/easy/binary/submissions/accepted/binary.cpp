#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    if (n == 0) return "0";
    std::string out;
    for (; n > 0; n /= 2) out += (char)('0' + n % 2);
    std::reverse(out.begin(), out.end());
    return out;
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
