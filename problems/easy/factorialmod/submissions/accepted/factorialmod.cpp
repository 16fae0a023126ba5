#include <iostream>

int main() {
    long long n, result = 1;
    std::cin >> n;
    for (long long i = 2; i <= n; i++) result = result * i % 1000000007;
    std::cout << result << "\n";
}
