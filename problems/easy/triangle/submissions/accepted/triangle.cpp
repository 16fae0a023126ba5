#include <iostream>

int main() {
    long long a, b, c;
    std::cin >> a >> b >> c;
    bool ok = a < b + c && b < a + c && c < a + b;
    std::cout << (ok ? "YES" : "NO") << "\n";
}
