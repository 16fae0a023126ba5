#include <iostream>

int main() {
    long long a, b, m;
    std::cin >> a >> b >> m;
    long long result = 1 % m, base = a % m;
    while (b > 0) {
        if (b & 1) result = result * base % m;
        base = base * base % m;
        b >>= 1;
    }
    std::cout << result << "\n";
}
