#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b, long long f, long long q) {
    long long costA = a * q, costB = b * q + f;
    if (costA < costB) return "A";
    if (costB < costA) return "B";
    return "same";
}

int main() {
    long long a, b, f, q;
    std::cin >> a >> b >> f >> q;
    std::cout << solve(a, b, f, q) << "\n";
}
