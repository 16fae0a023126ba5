#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Adds the lengths in 32-bit ints: two long sticks overflow.
std::string solve(long long a, long long b, long long c) {
    int x = a, y = b, z = c;
    int yz = (int)((unsigned)y + (unsigned)z), xz = (int)((unsigned)x + (unsigned)z), xy = (int)((unsigned)x + (unsigned)y);
    return x < yz && y < xz && z < xy ? "YES" : "NO";
}

int main() {
    long long a, b, c;
    while (std::cin >> a >> b >> c) std::cout << solve(a, b, c) << "\n";
}
