// The sum in a 32-bit int.
#include <iostream>

int main() {
    int a, b, c;
    std::cin >> a >> b >> c;
    int sum = (int)((unsigned)a + (unsigned)b + (unsigned)c);
    std::cout << sum << "\n";
}
