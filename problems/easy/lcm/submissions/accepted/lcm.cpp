#include <iostream>

long long gcd(long long a, long long b) { return b == 0 ? a : gcd(b, a % b); }

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << a / gcd(a, b) * b << "\n";
}
