// Tests n % 2 == 1, which is false for negative odd numbers in C++.
#include <iostream>

int main() {
    long long n;
    std::cin >> n;
    std::cout << (n % 2 == 1 ? "odd" : "even") << "\n";
}
