// The formula in 32-bit ints.
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    int sum = (int)((unsigned)n * (unsigned)(n + 1) / 2u);
    std::cout << sum << "\n";
}
