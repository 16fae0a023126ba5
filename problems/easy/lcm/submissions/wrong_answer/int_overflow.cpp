// The product a * b in 32-bit ints.
#include <iostream>

int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

int main() {
    int a, b;
    std::cin >> a >> b;
    int product = (int)((unsigned)a * (unsigned)b);
    std::cout << product / gcd(a, b) << "\n";
}
