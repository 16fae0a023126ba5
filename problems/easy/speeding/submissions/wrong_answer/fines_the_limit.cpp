#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Tests over < 0 for no fine: a car exactly at the limit is fined 100.
std::string solve(long long l, long long s) {
    long long over = s - l;
    if (over < 0) return "0";
    if (over <= 20) return "100";
    if (over <= 40) return "300";
    return "800";
}

int main() {
    long long l, s;
    std::cin >> l >> s;
    std::cout << solve(l, s) << "\n";
}
