#include <iostream>

int main() {
    long long n;
    std::cin >> n;
    std::cout << (n % 2 == 0 ? "even" : "odd") << "\n";
}
