#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long y, long long m, long long d) {
    int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) days[1] = 29;
    long long total = d;
    for (int i = 0; i < m - 1; i++) total += days[i];
    return std::to_string(total);
}

int main() {
    long long y, m, d;
    std::cin >> y >> m >> d;
    std::cout << solve(y, m, d) << "\n";
}
