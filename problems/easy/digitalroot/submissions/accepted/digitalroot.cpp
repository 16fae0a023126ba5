#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    while (n >= 10) {
        long long sum = 0;
        for (; n > 0; n /= 10) sum += n % 10;
        n = sum;
    }
    return std::to_string(n);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
