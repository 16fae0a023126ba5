#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts k children past the starting one: every (k + 1)-th child leaves.
std::string solve(long long n, long long k) {
    long long winner = 0;
    for (long long size = 2; size <= n; size++) winner = (winner + k + 1) % size;
    return std::to_string(winner + 1);
}

int main() {
    long long n, k;
    std::cin >> n >> k;
    std::cout << solve(n, k) << "\n";
}
