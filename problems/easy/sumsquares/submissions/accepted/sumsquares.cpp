#include <iostream>

int main() {
    long long n, total = 0;
    std::cin >> n;
    for (long long i = 1; i <= n; i++) total += i * i;
    std::cout << total << "\n";
}
