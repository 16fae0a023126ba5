// Tries every divisor below n: 10^10 steps for a large prime.
#include <iostream>

int main() {
    long long n;
    std::cin >> n;
    bool prime = n > 1;
    for (long long d = 2; d < n; d++)
        if (n % d == 0) prime = false;
    std::cout << (prime ? "YES" : "NO") << "\n";
}
