#include <iostream>

int main() {
    long long n, count = 0;
    std::cin >> n;
    for (long long d = 1; d * d <= n; d++)
        if (n % d == 0) count += (d * d == n) ? 1 : 2;
    std::cout << count << "\n";
}
