#include <iostream>

int main() {
    long long n;
    std::cin >> n;
    bool prime = n > 1;
    for (long long d = 2; d * d <= n; d++)
        if (n % d == 0) {
            prime = false;
            break;
        }
    std::cout << (prime ? "YES" : "NO") << "\n";
}
