// Tries every number: up to 10^12 steps.
#include <iostream>

int main() {
    long long n, count = 0;
    std::cin >> n;
    for (long long i = 1; i <= n; i++)
        if (i % 3 == 0 || i % 5 == 0) count++;
    std::cout << count << "\n";
}
