#include <iostream>

int main() {
    long long n;
    std::cin >> n;
    std::cout << n / 3 + n / 5 - n / 15 << "\n";
}
