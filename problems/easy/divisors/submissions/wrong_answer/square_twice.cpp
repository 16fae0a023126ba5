// Counts the square root of a perfect square twice.
#include <iostream>

int main() {
    long long n, count = 0;
    std::cin >> n;
    for (long long d = 1; d * d <= n; d++)
        if (n % d == 0) count += 2;
    std::cout << count << "\n";
}
