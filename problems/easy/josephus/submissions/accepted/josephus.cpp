#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n, long long k) {
    long long winner = 0;
    for (long long size = 2; size <= n; size++) winner = (winner + k) % size;
    return std::to_string(winner + 1);
}

int main() {
    long long n, k;
    std::cin >> n >> k;
    std::cout << solve(n, k) << "\n";
}
