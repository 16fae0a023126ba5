// Multiplies in 32-bit ints before taking the remainder.
#include <iostream>

int main() {
    int n, result = 1;
    std::cin >> n;
    for (int i = 2; i <= n; i++) result = (int)((unsigned)result * (unsigned)i) % 1000000007;
    std::cout << result << "\n";
}
